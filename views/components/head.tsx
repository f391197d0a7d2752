/**
 * The page's `<title>` and `<meta name="description">`, in the page's language: React hoists both into `<head>`.
 * Every page renders one (the e2e accessibility journey checks it on every page in both languages).
 */
export function Head({ title, description }: { title: string; description: string }) {
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
    </>
  );
}
