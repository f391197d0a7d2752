export function Component() {
  return <section className="container"><h1>home</h1></section>;
}
