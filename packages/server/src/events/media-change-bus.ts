// In-process news of media changes, feeding the media event streams. The change itself is durable
// in the store first (files/media-changes.ts); the bus only wakes streams up, so a missed publish
// costs latency, never data (streams read the store from their last change number).
import { EventEmitter } from 'node:events';

export class MediaChangeBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(workspaceId: string, mediaId: string): void {
    this.emitter.emit(`media:${mediaId}`);
    this.emitter.emit(`ws:${workspaceId}`);
  }
  subscribeMedia(mediaId: string, fn: () => void): () => void {
    this.emitter.on(`media:${mediaId}`, fn);
    return () => this.emitter.off(`media:${mediaId}`, fn);
  }
  subscribeWorkspace(workspaceId: string, fn: () => void): () => void {
    this.emitter.on(`ws:${workspaceId}`, fn);
    return () => this.emitter.off(`ws:${workspaceId}`, fn);
  }
}
