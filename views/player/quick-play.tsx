export function Component() {
  return <section className="container"><h1>quick-play</h1></section>;
}
