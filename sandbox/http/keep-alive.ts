/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long the sandbox keeps an idle kept-alive connection: far longer than it announces. Node's server says
 * `Keep-Alive: timeout=5` and by itself closes the connection soon after (6 s in Node 20.20). A client stops
 * reusing an idle connection a little before the time announced (undici at 3 s, Node's agent at 4 s), but only
 * when its timers run: a client whose event loop stalls (a loaded machine, a long garbage collection) writes its
 * next request on the connection as soon as the stall ends. When that is past the server's close, the request
 * meets the close and the client gets ECONNRESET (docs/design.md, "Kept-alive connections and a stalled event
 * loop"). Kept a minute more, as nginx keeps connections longer than its `Keep-Alive` header says, a connection
 * is never closed under a client that honours the announcement unless the client stalls for that minute.
 */
export const KEEP_ALIVE = {
	/** What the sandbox announces (`Keep-Alive: timeout=5`): Node's default, which clients already expect. */
	announcedMs: 5_000,
	/** How long an idle connection is kept: the announcement and a minute more. */
	keptMs: 65_000,
};

/**
 * Makes `server` announce `announcedMs` and close an idle connection only after `keptMs`. Node still writes the
 * `Connection` and `Keep-Alive` headers itself, so `Connection: close` and HTTP/1.0 are answered as Node does.
 * When Node times an idle connection out, the server's `timeout` listener keeps it for the rest of `keptMs` and
 * then closes it; a request on it meanwhile is read and answered, and its next idle time starts afresh. Nothing
 * else times a socket out on these servers (`server.timeout` stays 0).
 */
export function keepIdleConnections(server: Server, options = KEEP_ALIVE): void {
	const { announcedMs, keptMs } = options;
	server.keepAliveTimeout = announcedMs;
	const kept = new WeakSet<Socket>();
	server.on('request', (req: IncomingMessage) => kept.delete(req.socket));
	server.on('timeout', (socket: Socket) => {
		if (kept.has(socket)) {
			socket.destroy();
			return;
		}
		kept.add(socket);
		// What Node has waited (`socket.timeout`: the announced time, plus 1 s in Node 20.20), made up to `keptMs`.
		socket.setTimeout(Math.max(1, keptMs - (socket.timeout ?? announcedMs)));
	});
}
