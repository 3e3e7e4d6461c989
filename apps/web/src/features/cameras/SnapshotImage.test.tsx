import { fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupCamerasTestI18n } from '../../test/i18n';
import { SnapshotImage } from './SnapshotImage';

beforeAll(setupCamerasTestI18n);

const picture = () => screen.getByRole('img', { name: 'Latest snapshot' });

describe('a snapshot image', () => {
  it('keeps the last picture that loaded when the next address fails, instead of "Snapshot unavailable"', () => {
    const { rerender } = render(<SnapshotImage src="/media/one.jpg" alt="Latest snapshot" />);
    fireEvent.load(picture());

    // The next snapshot's address answers 404 (replaced on the server a moment ago).
    rerender(<SnapshotImage src="/media/two.jpg" alt="Latest snapshot" />);
    expect(picture()).toHaveAttribute('src', '/media/two.jpg');
    fireEvent.error(picture());
    expect(picture().tagName).toBe('IMG');
    expect(picture()).toHaveAttribute('src', '/media/one.jpg');
    expect(screen.queryByText('Snapshot unavailable')).not.toBeInTheDocument();

    // A later address that loads replaces it.
    rerender(<SnapshotImage src="/media/three.jpg" alt="Latest snapshot" />);
    expect(picture()).toHaveAttribute('src', '/media/three.jpg');
  });

  it('says "Snapshot unavailable" when nothing could be loaded, and when the kept picture fails too', () => {
    const { rerender } = render(<SnapshotImage src="/media/one.jpg" alt="Latest snapshot" />);
    fireEvent.error(picture());
    expect(picture().tagName).toBe('DIV');
    expect(screen.getByText('Snapshot unavailable')).toBeInTheDocument();

    rerender(<SnapshotImage src="/media/two.jpg" alt="Latest snapshot" />);
    fireEvent.load(picture());
    rerender(<SnapshotImage src="/media/three.jpg" alt="Latest snapshot" />);
    fireEvent.error(picture());
    expect(picture()).toHaveAttribute('src', '/media/two.jpg');
    fireEvent.error(picture());
    expect(screen.getByText('Snapshot unavailable')).toBeInTheDocument();
  });
});
