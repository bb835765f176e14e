/**
 * A receiver's answer read for its acknowledgement of a delivery: `"acknowledged": "<deliveryId>"` in a JSON
 * body (the `X-Multichannel-Ack` header is read by the engine itself, delivery-engine.ts).
 */

/** What the receiver's answer is read for (its acknowledgement): more is not read. */
const ANSWER_READ_BYTES = 16 * 1024;

/** Whether a JSON answer says `"acknowledged": "<deliveryId>"`; reads 16 KiB at most, never throws. */
export async function acknowledgedInBody(
	body: AsyncIterable<Buffer> & { dump(): Promise<void> },
	deliveryId: string,
): Promise<boolean> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			chunks.push(chunk);
			size += chunk.length;
			if (size > ANSWER_READ_BYTES) break;
		}
		if (size > ANSWER_READ_BYTES) return false;
		const answer: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
		return (
			answer !== null &&
			typeof answer === 'object' &&
			(answer as { acknowledged?: unknown }).acknowledged === deliveryId
		);
	} catch {
		return false;
	} finally {
		await body.dump().catch(() => undefined);
	}
}
