// A model endpoint on 127.0.0.1 that records every request and answers a minimal reply in the dialect asked for
// (Anthropic Messages, OpenAI Chat Completions and Responses, Gemini generateContent), streamed or not. The agents
// send it the prompt they built, which is where their catalog text is read from.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelEndpoint, RecordedRequest } from './types.js';

export interface RunningEndpoint extends ModelEndpoint {
  close(): Promise<void>;
}

export async function startModelEndpoint(): Promise<RunningEndpoint> {
  let recorded: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      recorded.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      reply(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(request: IncomingMessage, response: ServerResponse, body: string): void {
  const path = request.url ?? '';
  let stream = false;
  try {
    stream = (JSON.parse(body) as { stream?: boolean }).stream === true;
  } catch {
    // not JSON: answer plainly
  }
  if (/streamgeneratecontent/i.test(path)) stream = true;
  const send = (status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };
  const sse = (events: Array<[string | null, unknown]>) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [event, data] of events) {
      response.write(
        `${event === null ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
      );
    }
    response.end();
  };
  if (path.includes('/messages')) {
    const message = {
      id: 'msg_conformance',
      type: 'message',
      role: 'assistant',
      model: 'conformance',
      content: [] as unknown[],
      stop_reason: null as string | null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    if (!stream) {
      send(200, { ...message, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' });
      return;
    }
    sse([
      ['message_start', { type: 'message_start', message }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      [
        'message_delta',
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } },
      ],
      ['message_stop', { type: 'message_stop' }],
    ]);
    return;
  }
  if (path.includes('/chat/completions')) {
    const base = { id: 'chatcmpl-conformance', object: 'chat.completion', created: 0, model: 'conformance' };
    if (!stream) {
      send(200, {
        ...base,
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
      return;
    }
    const chunk = { ...base, object: 'chat.completion.chunk' };
    sse([
      [null, { ...chunk, choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] }],
      [
        null,
        {
          ...chunk,
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
      ],
      [null, '[DONE]'],
    ]);
    return;
  }
  if (path.includes('/responses')) {
    const output = [
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'ok', annotations: [] }],
      },
    ];
    const done = {
      id: 'resp_conformance',
      object: 'response',
      status: 'completed',
      model: 'conformance',
      output,
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    };
    if (!stream) {
      send(200, done);
      return;
    }
    sse([
      ['response.created', { type: 'response.created', response: { ...done, status: 'in_progress', output: [] } }],
      ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item: output[0] }],
      ['response.completed', { type: 'response.completed', response: done }],
    ]);
    return;
  }
  if (/generatecontent/i.test(path)) {
    const value = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    };
    if (stream) sse([[null, value]]);
    else send(200, value);
    return;
  }
  if (path.includes('/models')) {
    send(200, { object: 'list', data: [], models: [] });
    return;
  }
  send(404, { error: { message: `no such route on the conformance endpoint: ${path}` } });
}
