import { createHash, randomBytes, randomInt } from 'crypto';

import type { api } from '../../../src/client/api';
import type { SandboxCore } from '../../core';
import { conflict } from '../../errors';
import { newId, type InstanceRecord } from '../../store/store';
import { paginate, type ResourceHandlers } from './context';
import { requireInstance } from '../../channel/instance-records';
import { presentInstance } from '../../present';
import { requireNoUnfinishedCampaigns } from '../../campaigns/unfinished';

/**
 * Instance life cycle: created → (connect) connecting → (the sandbox-only "scan") connected →
 * (logout, or the phone going away) disconnected → (connect) connecting again.
 */

export const instanceHandlers: ResourceHandlers<typeof api.workspace.instances> = {
	create: ({ core, workspaceId, body }) => {
		const now = core.now().toISOString();
		const instance = core.store.insert('instances', {
			id: newId('inst'),
			workspaceId,
			name: body.name,
			description: body.description ?? null,
			status: 'created',
			phoneNumber: null,
			connection: null,
			createdAt: now,
			updatedAt: now,
		});
		return presentInstance(instance);
	},

	list: ({ core, workspaceId, query }) =>
		paginate(
			core.store.all('instances', (instance) => instance.workspaceId === workspaceId),
			query,
			presentInstance,
		),

	get: ({ core, workspaceId, params }) =>
		presentInstance(requireInstance(core, workspaceId, params.instanceId)),

	connect: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		if (instance.status === 'connected') {
			throw conflict(
				'instance_already_connected',
				`Instance ${instance.id} is already connected; log it out first`,
			);
		}
		const now = core.now();
		instance.connection = {
			method: body.method,
			qrCode: body.method === 'qr' ? `2@${randomBytes(24).toString('base64')}` : null,
			pairingCode: body.method === 'pairing_code' ? pairingCode() : null,
			phoneNumber: body.phoneNumber ?? null,
			expiresAt: new Date(now.getTime() + core.simulation.connectCodeTtlMs).toISOString(),
		};
		setStatus(core, instance, 'connecting');
		const connection = presentConnection(instance);
		core.emit(workspaceId, 'instance.qr_updated', connection, { instanceId: instance.id });
		return connection;
	},

	getConnectionState: ({ core, workspaceId, params }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		return {
			instanceId: instance.id,
			state: instance.status,
			phoneNumber: instance.phoneNumber,
			updatedAt: instance.updatedAt,
		};
	},

	restart: ({ core, workspaceId, params }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		// A restart keeps the session: a connected instance comes back connected.
		instance.updatedAt = core.now().toISOString();
		return presentInstance(instance);
	},

	update: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		if (body.name !== undefined) instance.name = body.name;
		if (body.description !== undefined) instance.description = body.description;
		if (body.rejectCalls !== undefined || body.rejectCallsText !== undefined) {
			const settings = instance.callSettings ?? { rejectCalls: false, rejectCallsText: null };
			instance.callSettings = {
				rejectCalls: body.rejectCalls ?? settings.rejectCalls,
				rejectCallsText:
					body.rejectCallsText === undefined ? settings.rejectCallsText : body.rejectCallsText,
			};
		}
		if (body.handOverQuietMinutes !== undefined)
			instance.handOverQuietMinutes = body.handOverQuietMinutes;
		instance.updatedAt = core.now().toISOString();
		return presentInstance(instance);
	},

	logout: ({ core, workspaceId, params }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		if (instance.status !== 'connected' && instance.status !== 'connecting') {
			throw conflict(
				'instance_not_connected',
				`Instance ${instance.id} is not connected (status: ${instance.status})`,
			);
		}
		disconnect(core, instance);
		return presentInstance(instance);
	},

	delete: ({ core, workspaceId, params }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		requireNoUnfinishedCampaigns(core, instance);
		if (instance.status === 'connected') disconnect(core, instance);
		core.store.remove('instances', instance.id);
		// Messages, groups, contacts and calls belong to the instance and go with it.
		for (const collection of ['messages', 'groups', 'contacts', 'calls'] as const) {
			for (const record of core.store.all(collection, (item) => item.instanceId === instance.id)) {
				core.store.remove(collection, record.id);
			}
		}
	},
};

export function setStatus(
	core: SandboxCore,
	instance: InstanceRecord,
	status: InstanceRecord['status'],
): void {
	instance.status = status;
	instance.updatedAt = core.now().toISOString();
}

export function disconnect(core: SandboxCore, instance: InstanceRecord): void {
	const wasConnected = instance.status === 'connected';
	instance.connection = null;
	instance.phoneNumber = null;
	setStatus(core, instance, 'disconnected');
	if (wasConnected)
		core.emit(instance.workspaceId, 'instance.disconnected', presentInstance(instance), {
			instanceId: instance.id,
		});
}

/** Scanning the QR code (or entering the pairing code) on the phone: the sandbox-only `scan` endpoint. */
export function completeConnection(
	core: SandboxCore,
	instance: InstanceRecord,
	scannedBy: string | undefined,
): void {
	const connection = instance.connection;
	if (instance.status !== 'connecting' || !connection) {
		throw conflict(
			'instance_not_connecting',
			`Instance ${instance.id} is not waiting for a scan (status: ${instance.status}); call connect first`,
		);
	}
	if (Date.parse(connection.expiresAt) < core.now().getTime()) {
		throw conflict(
			'connect_code_expired',
			`The ${connection.method === 'qr' ? 'QR' : 'pairing'} code has expired; call connect again`,
		);
	}
	instance.phoneNumber = connection.phoneNumber ?? scannedBy ?? randomPhoneNumber();
	instance.connection = null;
	setStatus(core, instance, 'connected');
	core.emit(instance.workspaceId, 'instance.connected', presentInstance(instance), {
		instanceId: instance.id,
	});
}

function presentConnection(instance: InstanceRecord) {
	const connection = instance.connection;
	return {
		instanceId: instance.id,
		status: instance.status,
		method: connection?.method,
		qr: connection?.qrCode
			? {
					code: connection.qrCode,
					imageDataUrl: qrImage(connection.qrCode),
					expiresAt: connection.expiresAt,
				}
			: null,
		pairingCode: connection?.pairingCode ?? null,
	};
}

const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTVWXYZ23456789';

function pairingCode(): string {
	const letters = Array.from(
		{ length: 8 },
		() => PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)],
	);
	return `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`;
}

function randomPhoneNumber(): string {
	return `+1555${String(randomInt(1_000_000, 9_999_999))}`;
}

/**
 * An SVG picture in the style of a QR code: the three finder squares and a pattern drawn from the code's
 * hash. It is not a scannable QR code: in the sandbox, "scanning" is the `scan` endpoint.
 */
function qrImage(code: string): string {
	const size = 25;
	const bits = createHash('sha512').update(code).digest();
	const cells: string[] = [];
	const finder = (x: number, y: number) =>
		x < 7 && y < 7 ? true : x >= size - 7 && y < 7 ? true : x < 7 && y >= size - 7;
	for (let y = 0; y < size; y++) {
		for (let x = 0; x < size; x++) {
			let dark: boolean;
			if (finder(x, y)) {
				const fx = x >= size - 7 ? x - (size - 7) : x;
				const fy = y >= size - 7 ? y - (size - 7) : y;
				dark =
					fx === 0 ||
					fx === 6 ||
					fy === 0 ||
					fy === 6 ||
					(fx >= 2 && fx <= 4 && fy >= 2 && fy <= 4);
			} else {
				const index = y * size + x;
				dark = ((bits[index % bits.length] >> index % 8) & 1) === 1;
			}
			if (dark) cells.push(`<rect x="${x}" y="${y}" width="1" height="1"/>`);
		}
	}
	const svg =
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 ${size + 4} ${size + 4}" shape-rendering="crispEdges">` +
		`<rect x="-2" y="-2" width="${size + 4}" height="${size + 4}" fill="#fff"/><g fill="#000">${cells.join('')}</g></svg>`;
	return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
