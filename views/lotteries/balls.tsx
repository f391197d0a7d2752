import { toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { ticketNumberParts } from '../../shared/ticket.ts';

const pad2 = (n: number) => String(n).padStart(2, '0');

/** One lottery ball: main numbers white with a green ring, the last number gold and red. Empty: a dashed slot. */
export function Ball({ n, last = false, lng, className = '' }: { n: number | null; last?: boolean; lng: Language; className?: string }) {
  return (
    <span className={`ball${last ? ' ball--last' : ''}${n === null ? ' ball--empty' : ''} ${className}`} aria-hidden="true">
      {n === null ? '' : toDigits(pad2(n), lng)}
    </span>
  );
}

/** A ticket as six balls; screen readers get the ticket number as text once. */
export function TicketBalls({ ticket, lng, label, size = '' }: { ticket: string; lng: Language; label: string; size?: '' | 'lg' | 'sm' }) {
  const parts = ticketNumberParts(ticket);
  if (!parts) return <span className="ticket-text">{toDigits(ticket, lng)}</span>;
  return (
    <span className={`balls${size ? ` balls--${size}` : ''}`}>
      <span className="visually-hidden">{`${label}: ${toDigits(parts.join('-'), lng)}`}</span>
      {parts.map((p, i) => (
        <Ball key={i} n={Number(p)} last={i === parts.length - 1} lng={lng} />
      ))}
    </span>
  );
}
