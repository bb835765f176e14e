/**
 * Error mapping with n8n's errors from another copy of n8n-workflow: in a real n8n the package may resolve a
 * different copy than the one that raised the error (README, design notes), so `instanceof` cannot be trusted.
 * A second copy is loaded here with jest's module isolation, which gives it classes of its own.
 */
import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import { errorJson, toNodeError } from '../../nodes/shared/errors';

const node: INode = {
	id: 'node-1',
	name: 'Multichannel',
	type: 'n8n-nodes-multichannel.multichannel',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function otherCopy(): typeof import('n8n-workflow') {
	let copy: typeof import('n8n-workflow') | undefined;
	jest.isolateModules(() => {
		copy = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	});
	return copy as typeof import('n8n-workflow');
}

const context = { keyKind: 'workspace', itemIndex: 0, secrets: ['mcw_secret_key_value'] };

it('loads a second copy whose classes differ (the situation under test)', () => {
	const copy = otherCopy();
	expect(copy.NodeOperationError).not.toBe(NodeOperationError);
	expect(new copy.NodeOperationError(node, 'x')).not.toBeInstanceOf(NodeOperationError);
});

it("keeps n8n's own input error from another copy as it is: its message once, its item, its description", () => {
	const copy = otherCopy();
	const raised = new copy.NodeOperationError(node, "The item has no binary field 'file'", {
		itemIndex: 0,
		description: 'Check the binary property name (mcw_secret_key_value)',
	});
	const mapped = toNodeError(node, raised, context);
	expect(mapped).toBe(raised);
	expect(mapped.message).toBe("The item has no binary field 'file'");
	expect(mapped.description).toBe('Check the binary property name ([redacted])');
	expect(mapped.context.itemIndex).toBe(0);
});

it("rebuilds n8n's HTTP-layer error from another copy without the request it carries", () => {
	const copy = otherCopy();
	const raised = new copy.NodeApiError(
		node,
		{ message: 'self-signed certificate', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
		{ httpCode: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' },
	);
	const mapped = toNodeError(node, raised, context);
	expect(mapped).toBeInstanceOf(NodeApiError);
	expect(mapped.message).toBe('Could not reach the Multichannel service');
	expect(errorJson(mapped)).toMatchObject({ details: { itemIndex: 0 } });
});
