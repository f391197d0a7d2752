/** Escapes text for HTML content and quoted attribute values alike (the pages written by hand, outside React). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
