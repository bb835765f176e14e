/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * Each example's "What it answers" note opens with what the workflow answers, in one wording, so that a person
 * opening examples side by side reads them alike: `## Answers: …`, or, for one run by hand, `## <what it does>;
 * answers nothing`. The Bulk send example's read "Answers nothing" alone, as if it did nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const EXAMPLES = path.join(__dirname, '../../examples');

test('every "What it answers" note opens with what the workflow answers', () => {
	const headings = readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
				nodes: Array<{ name: string; parameters: { content?: string } }>;
			};
			return workflow.nodes
				.filter((node) => node.name === 'What it answers')
				.map((node) => [file, (node.parameters.content ?? '').split('\n')[0]]);
		});
	expect(headings.length).toBeGreaterThan(10);
	expect(
		headings.filter(
			([, heading]) => !/^## (Answers: .+|[A-Z][^;]+; answers nothing)$/.test(heading),
		),
	).toEqual([]);
});
