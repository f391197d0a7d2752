export function Component() {
  return <section className="container"><h1>profile</h1></section>;
}
