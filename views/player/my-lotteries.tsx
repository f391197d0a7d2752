export function Component() {
  return <section className="container"><h1>my-lotteries</h1></section>;
}
