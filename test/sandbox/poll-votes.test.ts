/**
 * Poll votes in a group come only from its members: anyone else's vote is refused with 409 `not_a_member`, in
 * words the console's phone shows, and is neither counted nor sent as `poll.voted`; a member removed from the group
 * can no longer vote. The results list an option's voters in the order of their latest votes, votes made within one
 * millisecond too (the sandbox's clock held). The results of a message that is not a poll are a 409 `not_a_poll`
 * (documented: under `npm run test:contract`, Prism fails on an answer the document does not list).
 */
import { clientsFor, connectedInstance, raw, suiteSandbox } from '../support/sandbox';

/** The sandbox's clock, held at one time when set. */
let heldAt: number | undefined;
const suite = suiteSandbox({ now: () => heldAt ?? Date.now() });

/** The suite's sandbox with a workspace client and a connected instance of its own. */
async function withInstance(name: string, phoneNumber: string) {
	const { sandbox, keys } = suite;
	const instance = await connectedInstance(sandbox, name, phoneNumber);
	return { sandbox, keys, client: clientsFor(sandbox.baseUrl, keys).workspace, instance };
}

it("counts the votes of a group's members only", async () => {
	const { sandbox, keys, client, instance } = await withInstance('Polls in groups', '+14155550460');
	const group = await client.groups.create({
		instanceId: instance.id,
		body: { subject: 'Team lunch', participants: ['+14155550461', '+14155550462'] },
	});
	const poll = await client.messages.sendPoll({
		instanceId: instance.id,
		body: { to: group.id, question: 'Where?', options: ['Pizza', 'Sushi'] },
	});
	const vote = (from: string) =>
		raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instance.id}/messages/${poll.id}/vote`, {
			key: keys.workspace,
			body: { from, options: ['Pizza'] },
		});
	const votedBy = () =>
		sandbox.events
			.filter((event) => event.type === 'poll.voted')
			.map((event) => (event.data as { voter: string }).voter);

	expect((await vote('+14155550461')).status).toBe(201);
	const stranger = await vote('+14155550469');
	expect(stranger).toMatchObject({
		status: 409,
		body: {
			error: {
				code: 'not_a_member',
				message: `+14155550469 is not a member of the group ${group.id}: only its members vote on its polls, and this vote is not counted`,
			},
		},
	});
	// Removed from the group, a member's vote is a stranger's.
	await client.groups.updateParticipants({
		instanceId: instance.id,
		groupId: group.id,
		body: { action: 'remove', participants: ['+14155550462'] },
	});
	expect((await vote('+14155550462')).body).toMatchObject({ error: { code: 'not_a_member' } });

	const results = await client.polls.getResults({ instanceId: instance.id, messageId: poll.id });
	expect(results.totalVoters).toBe(1);
	expect(results.options[0].voters.map(({ voter }) => voter)).toEqual(['+14155550461']);
	expect(votedBy()).toEqual(['+14155550461']);
});

it('answers 409 not_a_poll for the results of a message that is not a poll', async () => {
	const { sandbox, keys, client, instance } = await withInstance('Not a poll', '+14155550470');
	const text = await client.messages.sendText({
		instanceId: instance.id,
		body: { to: '+14155550471', text: 'Hello' },
	});
	const results = await raw(
		sandbox.baseUrl,
		'GET',
		`/api/v1/instances/${instance.id}/messages/${text.id}/poll-results`,
		{ key: keys.workspace },
	);
	expect(results).toMatchObject({ status: 409, body: { error: { code: 'not_a_poll' } } });
});

it("lists an option's voters in the order of their latest votes, votes of one millisecond too", async () => {
	const { sandbox, keys, client, instance } = await withInstance('Votes at once', '+14155550475');
	const group = await client.groups.create({
		instanceId: instance.id,
		body: { subject: 'Quick lunch', participants: ['+14155550476', '+14155550477'] },
	});
	const poll = await client.messages.sendPoll({
		instanceId: instance.id,
		body: { to: group.id, question: 'Where?', options: ['Pizza', 'Sushi'] },
	});
	const vote = (from: string, option: string) =>
		raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instance.id}/messages/${poll.id}/vote`, {
			key: keys.workspace,
			body: { from, options: [option] },
		});
	heldAt = Date.now();
	try {
		await vote('+14155550476', 'Pizza');
		await vote('+14155550477', 'Sushi');
		await vote('+14155550476', 'Sushi'); // changed, last
	} finally {
		heldAt = undefined;
	}
	const results = await client.polls.getResults({ instanceId: instance.id, messageId: poll.id });
	expect(results.options[1].voters.map(({ voter }) => voter)).toEqual([
		'+14155550477',
		'+14155550476',
	]);
});
