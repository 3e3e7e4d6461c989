import type { MemoryCategory } from '@homesitter/contract';

/** A photo joined or left a memory; the AI issue embeds faces from people photos on these. */
export interface MemoryImageEvent {
  userId: string;
  memoryId: string;
  category: MemoryCategory;
  imageId: string;
  /** Key of the re-encoded JPEG in object storage. */
  storageKey: string;
}

declare module '../../platform/events.js' {
  interface AppEvents {
    'memory.image_added': MemoryImageEvent;
    /** Also emitted for each photo of a memory that is deleted or purged after it expired. */
    'memory.image_removed': MemoryImageEvent;
  }
}
