// A tool result's pictures (an MCP tool, a screenshot) as thumbnails under its row; a
// click opens a larger view. The bytes come from the host's content-addressed store
// through the asset server, never over the bridge.
import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import type { ImageRef } from '../../bridge/types';
import { attachmentSrc, imageAlt, thumbSize } from '../../lib/images';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { useModelSeesImages } from './ModelImages';
import './images.css';

const FORMAT: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' };

export function ToolImages({ tool, images }: { tool: string; images: readonly ImageRef[] }) {
  const sees = useModelSeesImages();
  const [open, setOpen] = useState<ImageRef | null>(null);
  if (images.length === 0) return null;
  const one = images.length === 1;
  return (
    <div className="tool-images">
      <ul className="tool-image-list" aria-label={one ? 'Image' : `${images.length} images`}>
        {images.map((img, i) => (
          <li key={`${i}:${img.sha256}`}>
            <Thumbnail tool={tool} image={img} onOpen={() => setOpen(img)} />
          </li>
        ))}
      </ul>
      {sees === false && (
        <p className="tool-meta tool-image-note">
          The model cannot see {one ? 'this image' : 'these images'} — it was told so. Switch to a model that accepts images, or turn on
          “Supports images” for this one in Settings → Models.
        </p>
      )}
      {open && <ImageView tool={tool} image={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function Thumbnail({ tool, image, onOpen }: { tool: string; image: ImageRef; onOpen: () => void }) {
  const [failed, setFailed] = useState(false);
  const src = attachmentSrc(image);
  const alt = imageAlt(tool, image);
  const size = thumbSize(image);
  if (!src || failed) {
    return (
      <span className="tool-image-missing" role="img" aria-label={`${alt}, not available`} style={size ?? undefined}>
        <ImageOff size={16} aria-hidden="true" />
        <span>Image not available</span>
      </span>
    );
  }
  return (
    <button type="button" className="tool-image-thumb" aria-label={`Open ${alt}`} onClick={onOpen}>
      <img src={src} alt={alt} loading="lazy" decoding="async" width={size?.width} height={size?.height} onError={() => setFailed(true)} />
    </button>
  );
}

function ImageView({ tool, image, onClose }: { tool: string; image: ImageRef; onClose: () => void }) {
  const alt = imageAlt(tool, image);
  const facts = [
    image.width > 0 && image.height > 0 ? `${image.width}×${image.height}` : '',
    FORMAT[image.mediaType] ?? '',
    image.bytes > 0 ? formatBytes(image.bytes) : '',
  ].filter(Boolean);
  return (
    <Dialog
      title={alt}
      className="dialog-image"
      onCancel={onClose}
      actions={
        <Button data-autofocus onClick={onClose}>
          Close
        </Button>
      }
    >
      <img className="tool-image-full" src={attachmentSrc(image) ?? undefined} alt={alt} />
      {facts.length > 0 && <p className="tool-meta">{facts.join(' · ')}</p>}
    </Dialog>
  );
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
