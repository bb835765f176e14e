/**
 * Revoking keys cannot lock a workspace out (issue 33, finding 1): a key revokes only keys whose scopes it holds
 * itself, and the workspace's last active key with every scope stays.
 */
import type { Sandbox } from '../../sandbox/server';
import { raw, startTestSandbox } from '../support/sandbox';

describe('console: revoking keys keeps the workspace manageable', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(() => sandbox.close());

	const revoke = (key: string, keyId: string) =>
		raw(sandbox.baseUrl, 'POST', `/user/api/keys/${keyId}/revoke`, { key, body: {} });

	async function mint(key: string, name: string, scopes: string[]) {
		const answer = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key,
			body: { name, kind: 'workspace', scopes },
		});
		expect(answer.status).toBe(201);
		return answer.body as { key: { id: string }; secret: string };
	}

	it('a narrow key that manages keys revokes neither the seeded keys nor any key holding more than it', async () => {
		const seeded = sandbox.createWorkspace('Narrow manager');
		const ids = sandbox.store
			.all('keys', (record) => record.workspaceId === seeded.workspace.id)
			.map((record) => record.id);
		const narrow = await mint(seeded.keys.workspace, 'Reader', ['messaging:read', 'keys:manage']);

		for (const id of ids) {
			const answer = await revoke(narrow.secret, id);
			expect(answer.status).toBe(403);
			expect(answer.body).toMatchObject({
				error: {
					code: 'insufficient_scope',
					message: expect.stringContaining('may revoke only keys whose scopes it holds itself'),
				},
			});
			expect(sandbox.store.get('keys', id)?.revokedAt).toBeNull();
		}
		// The seeded key still makes write keys.
		await mint(seeded.keys.workspace, 'Writer', ['messaging:read', 'messaging:write']);
		// Keys within its own scopes, itself included, it revokes.
		const reader = await mint(narrow.secret, 'Another reader', ['messaging:read']);
		expect((await revoke(narrow.secret, reader.key.id)).status).toBe(200);
		expect((await revoke(narrow.secret, narrow.key.id)).status).toBe(200);
	});

	it('the last active key with every scope stays, even against itself; with another such key it goes', async () => {
		const seeded = sandbox.createWorkspace('Last full key');
		const full = sandbox.store.all(
			'keys',
			(record) => record.workspaceId === seeded.workspace.id && record.kind === 'workspace',
		)[0];
		// Another key that manages keys does not stand in for it: it cannot grant every scope.
		await mint(seeded.keys.workspace, 'Manager', [
			'messaging:read',
			'messaging:write',
			'keys:manage',
		]);
		const last = await revoke(seeded.keys.workspace, full.id);
		expect(last.status).toBe(409);
		expect(last.body).toMatchObject({
			error: { code: 'last_active_key', message: expect.stringContaining('every scope') },
		});
		expect(full.revokedAt).toBeNull();

		const second = await mint(seeded.keys.workspace, 'Second owner', [...full.scopes]);
		expect((await revoke(second.secret, full.id)).status).toBe(200);
		expect((await revoke(second.secret, second.key.id)).status).toBe(409);
	});
});
