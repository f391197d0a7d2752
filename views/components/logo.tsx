/** The Bhagya mark: a lottery ball with the Bengali letter ভা. */
export function Logo({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false" className="logo">
      <circle cx="24" cy="24" r="22" fill="#0b6e4f" />
      <circle cx="24" cy="24" r="15" fill="#fff" />
      <circle cx="24" cy="24" r="22" fill="none" stroke="#f4b400" strokeWidth="3" />
      <text x="24" y="30" textAnchor="middle" fontSize="17" fontWeight="700" fill="#c8102e" fontFamily="'Noto Sans Bengali', sans-serif">
        ভা
      </text>
    </svg>
  );
}
