import type { ComponentType } from 'react';

/** Components that hydrate on their own on islands pages (see components/island.tsx), by name. */
export const islands: Record<string, ComponentType<never>> = {};
