export function Component() {
  return <section className="container"><h1>faq</h1></section>;
}
