// Stored images of tool results: where the window loads them from and how large a
// thumbnail is. The Go asset server serves /_attachments/<sha256> (desktop/attachments.go).
import type { ImageRef, ProviderList, ProviderProfile } from '../bridge/types';

/** The route of the content-addressed image store; only 64 lowercase hex names exist. */
export const ATTACHMENTS_PREFIX = '/_attachments/';

/** Thumbnails are at most this tall (CSS px). */
export const THUMB_MAX_HEIGHT = 160;

/** The image's URL, or null for a reference that cannot name a stored image. */
export function attachmentSrc(ref: Pick<ImageRef, 'sha256'>): string | null {
  return /^[0-9a-f]{64}$/.test(ref.sha256) ? ATTACHMENTS_PREFIX + ref.sha256 : null;
}

/** A thumbnail's box: the image scaled down (never up) to THUMB_MAX_HEIGHT, keeping its aspect;
 * null when the size is unknown (CSS bounds it then). */
export function thumbSize(ref: Pick<ImageRef, 'width' | 'height'>): { width: number; height: number } | null {
  if (!(ref.width > 0 && ref.height > 0)) return null;
  const height = Math.min(THUMB_MAX_HEIGHT, ref.height);
  return { width: Math.max(1, Math.round((ref.width * height) / ref.height)), height };
}

/** "Image from Screenshot (1280×800)": the image's alt text. */
export function imageAlt(tool: string, ref: Pick<ImageRef, 'width' | 'height'>): string {
  const size = ref.width > 0 && ref.height > 0 ? ` (${ref.width}×${ref.height})` : '';
  return `Image from ${tool || 'a tool'}${size}`;
}

/** Whether a provider's model gets images: the user's explicit choice, else its family's default. */
export function acceptsImages(p: Pick<ProviderProfile, 'supportsImages' | 'imagesByDefault'>): boolean {
  return p.supportsImages ?? p.imagesByDefault;
}

/**
 * The provider a session's next turn uses: the one it chose, else the default, else the
 * first saved; undefined when none is saved (the environment's model, whose image support
 * the window does not know). chosen "" follows the default.
 */
export function sessionProfile(list: ProviderList, chosen: string): ProviderProfile | undefined {
  const pinned = chosen ? list.providers.find((p) => p.id === chosen) : undefined;
  return pinned ?? list.providers.find((p) => p.isDefault) ?? list.providers[0];
}
