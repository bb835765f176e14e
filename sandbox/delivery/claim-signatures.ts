import { SIGNATURE_TOLERANCE_SECONDS } from '../../src/client/signature';
import type { Store } from '../store/store';

/**
 * The signatures of the signed claims taken: each is taken once, so a copied claim request changes nothing, not
 * even after a restart (they are kept in the store). A signature is kept until its timestamp is too far away to
 * be accepted at all (the tolerance either side).
 */
export function takeSignature(
	store: Store,
	workspaceId: string,
	signature: string,
	timestampSeconds: number,
	nowMs: number,
): boolean {
	for (const used of store.values('usedSignatures')) {
		if (Date.parse(used.keptUntil) > nowMs) break;
		store.remove('usedSignatures', used.id);
	}
	if (store.get('usedSignatures', signature)) return false;
	store.insert('usedSignatures', {
		id: signature,
		workspaceId,
		keptUntil: new Date((timestampSeconds + SIGNATURE_TOLERANCE_SECONDS + 1) * 1000).toISOString(),
	});
	return true;
}
