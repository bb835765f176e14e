/**
 * A receiver's answer read for its acknowledgement of a delivery: `"acknowledged": "<deliveryId>"` in a JSON
 * body (the `X-Multichannel-Ack` header is read by the engine itself, delivery-engine.ts).
 */

/** What the receiver's answer is read for (its acknowledgement, the URL it names): more is not read. */
const ANSWER_READ_BYTES = 16 * 1024;

type AnswerBody = AsyncIterable<Buffer> & { dump(): Promise<void> };

/** A JSON answer's top-level fields; empty when it is not a JSON object of 16 KiB at most. Never throws. */
export async function answerFields(body: AnswerBody): Promise<Record<string, unknown>> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			chunks.push(chunk);
			size += chunk.length;
			if (size > ANSWER_READ_BYTES) break;
		}
		if (size > ANSWER_READ_BYTES) return {};
		const answer: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
		return answer !== null && typeof answer === 'object' && !Array.isArray(answer)
			? (answer as Record<string, unknown>)
			: {};
	} catch {
		return {};
	} finally {
		await body.dump().catch(() => undefined);
	}
}

/** Whether a JSON answer says `"acknowledged": "<deliveryId>"`. */
export async function acknowledgedInBody(body: AnswerBody, deliveryId: string): Promise<boolean> {
	return (await answerFields(body)).acknowledged === deliveryId;
}
