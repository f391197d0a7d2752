import type { ComponentType } from 'react';
import { FeaturedLotteries } from './player/home/featured-lotteries.tsx';
import { HeroSlideshow } from './player/home/hero.tsx';
import { QuickPlayPanel } from './player/home/quick-play-panel.tsx';

/** Components that hydrate on their own on islands pages (see components/island.tsx), by name. */
export const islands: Record<string, ComponentType<never>> = {
  hero: HeroSlideshow,
  'quick-play': QuickPlayPanel,
  featured: FeaturedLotteries,
};

