// The render worker thread (render-pool.ts): answers each task of render-tasks.ts with its text,
// or with the API error it ends in (409 for media not analysed yet).
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../errors.ts';
import { render, type RenderAnswer, type RenderTask } from './render-tasks.ts';

// The text crosses back as UTF-8 bytes whose buffer is transferred, not copied: the API's thread
// then neither holds a megabyte string on its heap nor encodes it to write it out.
const encoder = new TextEncoder();

parentPort?.on('message', ({ id, task }: { id: number; task: RenderTask }) => {
  let answer: RenderAnswer;
  try {
    answer = { body: encoder.encode(render(task)) };
  } catch (err) {
    answer = { error: err instanceof ApiError && err.code === 'CONFLICT' ? { code: 'CONFLICT', message: err.message } : { code: 'INTERNAL', message: String(err) } };
  }
  parentPort?.postMessage({ id, answer }, 'body' in answer ? [answer.body.buffer as ArrayBuffer] : []);
});
