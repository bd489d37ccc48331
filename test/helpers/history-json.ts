import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

/**
 * A workflow history to and from the JSON of Temporal's tools (`temporal workflow show -o json`,
 * the Web UI's download), as `historyToJSON`/`historyFromJSON` of @temporalio/common make it.
 * Those two throw "type must be a Type" here: the lockfile installs two copies of protobufjs 8,
 * and @temporalio/common's protojson checks `instanceof Type` against its own copy, not the one
 * @temporalio/proto's types come from. So the same conversion runs with @temporalio/proto's copy.
 */

type ProtoJson = {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): unknown;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const protojson = require(require.resolve('protobufjs/ext/protojson', { paths: [require.resolve('@temporalio/proto')] })) as ProtoJson;
const historyType = patchProtobufRoot(proto as unknown as Record<string, unknown> & { lookupType(name: string): { fromObject(o: unknown): unknown } }).lookupType('temporal.api.history.v1.History');

export type History = proto.temporal.api.history.v1.IHistory;

export function historyToJSON(history: History): string {
  return JSON.stringify(protojson.toJson(historyType, historyType.fromObject(history)), null, 2);
}

/** Fields this SDK does not know (a newer server's) are ignored, as the SDK's own reader does. */
export function historyFromJSON(json: unknown): History {
  const history = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
  if (history === null || typeof history !== 'object') throw new TypeError('not a workflow history');
  return history as History;
}
