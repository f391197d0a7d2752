export function Component() {
  return <section className="container"><h1>legal</h1></section>;
}
