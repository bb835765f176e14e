/**
 * What the Short Link node's test files share: the node under test, and a test sandbox for the whole file whose
 * seeded workspace's short-link key the node runs with.
 */
import type { IDataObject } from 'n8n-workflow';

import type { NodeUnderTest } from '../../dev/harness';
import { loopbackOrNock } from './client';
import { useSandboxNode, type SandboxNodeSuite } from './nodes';
import { SHORT_LINK_NODE_TYPE } from './package';

export const NODE_NAME = 'Short Link';

export function linkNode(
	parameters: IDataObject,
	extra: Partial<NodeUnderTest> = {},
): NodeUnderTest {
	return { type: SHORT_LINK_NODE_TYPE, name: NODE_NAME, parameters, ...extra } as NodeUnderTest;
}

/**
 * The Short Link node against a test sandbox for a whole test file (`useSandboxNode`): connections to loopback
 * go through, anything else must be answered by nock.
 */
export function useShortLinkSandbox(): SandboxNodeSuite {
	const suite = useSandboxNode('multichannelShortLinkApi');
	loopbackOrNock();
	return suite;
}
