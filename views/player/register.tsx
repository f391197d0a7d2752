export function Component() {
  return <section className="container"><h1>register</h1></section>;
}
