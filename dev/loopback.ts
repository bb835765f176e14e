/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev code runs in plain Node, never inside n8n */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local HTTP servers of the tests, the harness and the bench (webhook receivers, stand-ins, proxies): listening
 * on loopback only, and closed with their open connections so that nothing keeps a test process alive.
 */

/** Listens on 127.0.0.1 (a free port unless `port` is given); the server's base URL. */
export async function listenOnLoopback(server: Server, port = 0): Promise<string> {
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and every connection still open to it. */
export async function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
}
