// Re-Run Protection in a real n8n (issue 45, item 1): the same workflow run twice with the same item (two
// executions of a Webhook-started workflow, the same request) sends the message once; both runs output it. The key
// is built from n8n's own workflow and node ids, which only a real n8n gives (the jest tests set them by hand).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useStack } from './support/harness.mjs';

const ctx = useStack();
const TO = '+14155550777';

test(
	'a workflow run twice with the same item sends once, and both runs succeed',
	{ timeout: 180_000 },
	async () => {
		const { created, path } = await ctx.activateFixture('rerun.json');
		const body = { instanceId: ctx.stack.instance.id, to: TO };
		for (let run = 0; run < 2; run++) {
			const answer = await ctx.postToWebhook(path, body);
			assert.equal(answer.status, 200, `run ${run}: ${answer.text}`);
		}
		const executions = await ctx.settledExecutions(created.id, 2);
		assert.deepEqual(
			executions.map((execution) => execution.status),
			['success', 'success'],
		);
		const page = await ctx.workspace(
			'GET',
			`/api/v1/instances/${ctx.stack.instance.id}/messages?limit=100`,
		);
		const sent = page.data.filter(
			(message) => message.direction === 'outbound' && message.to === TO,
		);
		assert.equal(sent.length, 1, 'one message for the two runs');
	},
);
