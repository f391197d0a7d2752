export function Component() {
  return <section className="container"><h1>reset-password</h1></section>;
}
