export function Component() {
  return <section className="container"><h1>forgot-password</h1></section>;
}
