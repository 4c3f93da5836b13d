// The Temporal remote codec endpoint: the Web UI (`--ui-codec-endpoint`, or its codec settings) and
// `temporal ... --codec-endpoint` post the encrypted payloads they read and get them back decoded
// by the same codec every client and worker uses (temporal/payload-codec.ts). Partner text and
// operator notes come back in clear, so only a mapped human operator with portfolio_intake:review
// (the console's readers, on-call included) may call it; the browser's CORS is the Web UI's origin only.
import type { PayloadCodec } from '@temporalio/common';
import { z } from '../openapi/zod';
import { PayloadDecryptionError } from '../../temporal/payload-codec';
import { payloadFromJson, payloadToJson } from '../../temporal/payload-json';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { TEMPORAL_CODEC_BASE } from '../routing/bases';
import { defineRoute, type Route } from '../routing/route';

const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'expected base64');
/** A payload as the remote codec protocol writes it (protobuf JSON: bytes as base64). */
const JsonPayload = z
  .object({ metadata: z.record(z.string(), base64).optional(), data: base64.optional() })
  .openapi('TemporalPayload', { description: 'a Temporal payload in protobuf JSON: metadata values and data base64' });
const Payloads = z.object({ payloads: z.array(JsonPayload).max(1000) }).openapi('TemporalPayloads');

/** The API client's own codec: the one it encrypts with. */
function codecOf(deps: AppDeps): PayloadCodec {
  const [codec] = deps.temporal.client.options.loadedDataConverter.payloadCodecs;
  if (!codec) throw new Error('the Temporal client has no payload codec');
  return codec;
}

function codecRoute(direction: 'decode' | 'encode', summary: string): Route {
  return defineRoute({
    doc: 'intake', method: 'post', path: `${TEMPORAL_CODEC_BASE}/${direction}`, operationId: `temporalCodec_${direction}`, tag: 'temporal codec',
    auth: 'codec', permission: 'portfolio_intake:review', limit: 'read', bodyLimit: '2mb', problems: [422],
    summary, body: Payloads, ok: { 200: ['the payloads, in the same order', Payloads] },
    async handler({ deps, res, body }) {
      res.set('cache-control', 'no-store');
      try {
        return { payloads: (await codecOf(deps)[direction](body.payloads.map(payloadFromJson))).map(payloadToJson) };
      } catch (err) {
        if (err instanceof PayloadDecryptionError) throw new AppError('payload_undecodable', err.message);
        throw err;
      }
    },
  });
}

export function temporalCodecRoutes(): Route[] {
  return [
    codecRoute('decode', 'Decode Temporal payloads (the Web UI and the temporal CLI, for operators): encrypted ones come back in clear, others as they are'),
    codecRoute('encode', 'Encode Temporal payloads (the Web UI and the temporal CLI, for operators) as the API and the worker do: encrypted under the current key'),
  ];
}
