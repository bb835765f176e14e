// The example workflows (examples/) as the stack imports them into n8n. Plain Node (never shipped).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_NAME } from '../n8n/package-install.mjs';
import { N8N_VERSION, REPO } from '../n8n/runtime.mjs';
import { sandboxCall } from './n8n-api.mjs';

const EXAMPLES_DIR = join(REPO, 'examples');

/** Example workflows, each with the package node types it uses. */
function loadExamples(dir = EXAMPLES_DIR) {
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
			const types = [...new Set(workflow.nodes.map((node) => node.type))].filter((type) =>
				type.startsWith(`${PACKAGE_NAME}.`),
			);
			return { file, workflow, types };
		});
}

/**
 * A workflow ready for n8n's public API: credentials pointed at the created ones (by type), empty instance
 * pickers set to the demo instance, and only the fields `POST /workflows` accepts.
 */
export function prepareWorkflow(workflow, { credentials, instance }) {
	const nodes = workflow.nodes.map((node) => {
		const copy = structuredClone(node);
		if (copy.credentials) {
			for (const type of Object.keys(copy.credentials)) {
				if (credentials[type]) copy.credentials[type] = credentials[type];
			}
		}
		const picker = copy.parameters?.instanceId;
		if (instance && picker?.__rl && picker.mode === 'list' && !picker.value) {
			copy.parameters.instanceId = {
				__rl: true,
				mode: 'list',
				value: instance.id,
				cachedResultName: `${instance.name} (connected)`,
			};
		}
		return copy;
	});
	return {
		name: workflow.name,
		nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? { executionOrder: 'v1' },
		// Left out, n8n stores null, and 2.x's "Execute step" after a run then fails with "Cannot read properties of
		// null (reading '<node>')" (docs/n8n-findings.md#the-editor). 1.x's public API refuses the field.
		...(N8N_VERSION.startsWith('1.') ? {} : { pinData: {} }),
	};
}

/** The labels support-queue.json looks up by name: the queue's, then one per topic. */
const EXAMPLE_LABELS = ['Support', 'Billing', 'Delivery', 'Other'];

/** Makes the labels the examples use in the sandbox's workspace, unless a label of that name exists. */
export async function ensureExampleLabels(baseUrl, workspaceKey) {
	const list = await sandboxCall(baseUrl, workspaceKey, 'GET', '/api/v1/labels?limit=100');
	const names = new Set(list.data.map((label) => label.name.toLowerCase()));
	for (const name of EXAMPLE_LABELS.filter((wanted) => !names.has(wanted.toLowerCase()))) {
		await sandboxCall(baseUrl, workspaceKey, 'POST', '/api/v1/labels', { name });
	}
}

/**
 * Imports the example workflows whose node types the package provides, unless a workflow of that name
 * exists. Returns what was imported, kept, and skipped (with the missing node types). `nameSuffix`: each name
 * gets ` (<suffix>)`, so that an e2e file on a shared stack has copies of its own, on its own instance.
 */
export async function importExamples(client, { credentials, instance, nodeTypes, nameSuffix }) {
	const existing = await client.listAll('/workflows');
	const report = { imported: [], kept: [], skipped: [] };
	for (const { file, workflow: example, types } of loadExamples()) {
		const workflow = nameSuffix ? { ...example, name: `${example.name} (${nameSuffix})` } : example;
		// n8n makes `<node>Tool` (an AI agent's tool) of each node that is usable as a tool.
		const missing = types.filter((type) => !nodeTypes.has(type.replace(/Tool$/, '')));
		if (missing.length > 0) {
			report.skipped.push({ file, missing });
			continue;
		}
		const found = existing.find(
			(candidate) => candidate.name === workflow.name && !candidate.isArchived,
		);
		if (found) {
			report.kept.push({ file, id: found.id });
			continue;
		}
		const created = await client.api(
			'POST',
			'/workflows',
			prepareWorkflow(workflow, { credentials, instance }),
		);
		report.imported.push({ file, id: created.id });
	}
	return report;
}
