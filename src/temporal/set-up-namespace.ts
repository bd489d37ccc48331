import { isGrpcServiceError, type ConnectionLike } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { WORKFLOW_SEARCH_ATTRIBUTES } from '../shared/search-attributes';

// What a Temporal server needs before the workflows run on it: the namespace (checked, never
// created: on a real cluster or Temporal Cloud that is the operator's decision, with its
// retention) and the search attributes the workflows set (registered when missing). The dev
// server gets both from its command line; this is for every other server.

const GRPC_NOT_FOUND = 5;
const GRPC_PERMISSION_DENIED = 7;

export interface NamespaceSetup {
  namespace: string;
  retentionDays: number | null;
  /** Attributes that were already registered with the right type. */
  present: string[];
  /** Attributes this call registered. */
  added: string[];
}

export class NamespaceSetupError extends Error {}

export async function setUpNamespace(connection: Pick<ConnectionLike, 'workflowService' | 'operatorService'>, namespace: string): Promise<NamespaceSetup> {
  let retentionDays: number | null = null;
  try {
    const described = await connection.workflowService.describeNamespace({ namespace });
    const seconds = Number(described.config?.workflowExecutionRetentionTtl?.seconds ?? 0);
    retentionDays = seconds > 0 ? seconds / 86_400 : null;
  } catch (err) {
    if (isGrpcServiceError(err) && err.code === GRPC_NOT_FOUND) {
      throw new NamespaceSetupError(
        `namespace "${namespace}" does not exist; create it first (self-hosted: temporal operator namespace create -n ${namespace} --retention 72h; Temporal Cloud: in the Cloud UI or tcld)`,
      );
    }
    throw err;
  }

  const listed = await connection.operatorService.listSearchAttributes({ namespace });
  const existing = listed.customAttributes ?? {};
  const present: string[] = [];
  const missing: Record<string, ReturnType<typeof encodeSearchAttributeIndexedValueType>> = {};
  for (const key of WORKFLOW_SEARCH_ATTRIBUTES) {
    const wanted = encodeSearchAttributeIndexedValueType(key.type);
    const found = existing[key.name];
    if (found === undefined) missing[key.name] = wanted;
    else if (found === wanted) present.push(key.name);
    else throw new NamespaceSetupError(`search attribute ${key.name} exists in "${namespace}" with another type; the workflows need ${key.type}`);
  }
  const added = Object.keys(missing);
  if (added.length > 0) {
    try {
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing as Record<string, number> });
    } catch (err) {
      if (isGrpcServiceError(err) && err.code === GRPC_PERMISSION_DENIED) {
        throw new NamespaceSetupError(
          `not allowed to add search attributes ${added.join(', ')} to "${namespace}" (Temporal Cloud: add them as Keyword in the Cloud UI or with tcld namespace search-attributes add)`,
        );
      }
      throw err;
    }
  }
  return { namespace, retentionDays, present, added };
}
