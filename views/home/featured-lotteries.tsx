import { useState, type MouseEvent } from 'react';
import { paths } from '../../shared/paths.ts';
import { useTranslation } from '../i18n.tsx';
import { leaveTo } from '../components/close-on-back.ts';
import { ModalDialog } from '../components/modal-dialog.tsx';
import { LotteryCard, type CardLottery } from '../lotteries/lottery-card.tsx';
import type { Selection } from '../lotteries/number-picker.tsx';
import { PICK_TITLE_ID, PickDialogBody } from '../lotteries/pick-dialog-body.tsx';

/** `staff`: a staff account is logged in (the picker then shows the refusal, views/lotteries/staff-no-play.tsx). */
export type FeaturedLotteriesProps = { lotteries: CardLottery[]; picked: CardLottery | null; now: number; staff?: boolean };

/** `?pick=ID#pick`: without JavaScript the server renders the modal open for that lottery. */
export const pickHref = (id: number) => `/?pick=${id}#pick`;

/**
 * Home page island: the first published lotteries as cards; a card opens the number picker in a modal.
 * Reopening the same card keeps its numbers; another card starts afresh (docs/rules/pages.md#5-home-page).
 */
export function FeaturedLotteries({ lotteries, picked, now, staff = false }: FeaturedLotteriesProps) {
  const { t } = useTranslation('home');
  const [open, setOpen] = useState<CardLottery | null>(picked);
  const [kept, setKept] = useState<{ id: number; selection: Selection } | null>(null);

  const choose = (l: CardLottery) => (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    setOpen(l);
  };
  const close = () => {
    setOpen(null);
    // Opened from a ?pick= address (no-JS link, shared URL): the page address drops it again.
    if (window.location.search.includes('pick=')) window.history.replaceState(window.history.state, '', window.location.pathname);
  };

  if (!lotteries.length) return <p className="empty-state">{t('featured.empty')}</p>;
  return (
    <>
      <ul className="lottery-row">
        {lotteries.map((l) => (
          <li key={l.id}>
            <LotteryCard lottery={l} now={now} pickHref={pickHref(l.id)} onPick={choose(l)} />
          </li>
        ))}
      </ul>
      {open ? (
        <ModalDialog id="pick" titleId={PICK_TITLE_ID} className="pick-dialog" onClose={close} dismissHref="/#featured" closeOnBack>
          <PickDialogBody
            lottery={open}
            now={now}
            variant="modal"
            initial={kept?.id === open.id ? kept.selection : undefined}
            onChange={(selection) => setKept({ id: open.id, selection })}
            onPlay={leaveTo}
            otherHref={paths.allLotteries}
            staff={staff}
          />
        </ModalDialog>
      ) : null}
    </>
  );
}
