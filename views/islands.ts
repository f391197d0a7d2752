import type { ComponentType } from 'react';
import { Congratulations } from './home/congratulations.tsx';
import { FeaturedLotteries } from './home/featured-lotteries.tsx';
import { HeroSlideshow } from './home/hero.tsx';
import { QuickPlayPanel } from './home/quick-play-panel.tsx';

/** Components that hydrate on their own on islands pages (see components/island.tsx), by name. */
export const islands: Record<string, ComponentType<never>> = {
  hero: HeroSlideshow,
  'quick-play': QuickPlayPanel,
  featured: FeaturedLotteries,
  congrats: Congratulations,
};
