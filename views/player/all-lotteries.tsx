export function Component() {
  return <section className="container"><h1>all-lotteries</h1></section>;
}
