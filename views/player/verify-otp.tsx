export function Component() {
  return <section className="container"><h1>verify-otp</h1></section>;
}
