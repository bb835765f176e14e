import type { MessageView, PollResultsView } from '../views';
import { el } from './dom';

/**
 * What the chat shows beyond plain bubbles: mentions in a text or caption, and a poll with its votes, which
 * the contact can cast and change.
 */

/** `@<number>` and `@everyone`, as a text shows a mention. */
const MENTION = /@(everyone|\d{6,15})\b/g;

/**
 * The text with its mentions highlighted: each `@<number>` the message mentions, and `@everyone` when it mentions
 * everyone. `me` (the contact) and the instance's own number are marked as such.
 */
export function mentionedText(
	text: string,
	message: MessageView,
	me: string,
	ownNumber: string | null,
): Node[] {
	const mentioned = new Set(message.mentions ?? []);
	const nodes: Node[] = [];
	let last = 0;
	for (const match of text.matchAll(MENTION)) {
		const number = match[1] === 'everyone' ? null : `+${match[1]}`;
		const counts = number ? mentioned.has(number) : message.mentionEveryone === true;
		if (!counts) continue;
		const index = match.index ?? 0;
		nodes.push(document.createTextNode(text.slice(last, index)));
		const whom =
			number === me ? ' you' : number !== null && number === ownNumber ? ' instance' : '';
		nodes.push(el('span', { className: `mention${whom}`, text: match[0] }));
		last = index + match[0].length;
	}
	nodes.push(document.createTextNode(text.slice(last)));
	return nodes;
}

/** A line saying whom the message mentions that matters here: the instance, or the contact. */
export function mentionMark(
	message: MessageView,
	me: string,
	instanceName: string,
): HTMLElement | null {
	if (message.direction === 'inbound' && message.mentionsMe) {
		return el('div', {
			className: 'mention-mark',
			'data-mentions': 'instance',
			text: `@ mentions ${instanceName}`,
		});
	}
	const mentionsContact =
		message.direction === 'outbound' && (message.mentionEveryone || message.mentions?.includes(me));
	if (!mentionsContact) return null;
	const text = message.mentionEveryone ? '@ mentions everyone' : '@ mentions you';
	return el('div', { className: 'mention-mark', 'data-mentions': 'you', text });
}

/** The mentions the contact's typed text shows: `@<number>` each, and `@everyone` in a group. */
export function mentionsTyped(
	text: string,
	inGroup: boolean,
): { mentions?: string[]; mentionEveryone?: boolean } {
	const numbers = new Set<string>();
	let everyone = false;
	for (const match of text.matchAll(MENTION)) {
		if (match[1] === 'everyone') everyone = inGroup;
		else numbers.add(`+${match[1]}`);
	}
	return {
		...(numbers.size > 0 ? { mentions: [...numbers] } : {}),
		...(everyone ? { mentionEveryone: true } : {}),
	};
}

/**
 * A poll's options, each with its count and voters. The contact taps an option to vote, again to take it back;
 * a poll of several answers toggles each option, one of a single answer replaces the vote.
 */
export function pollOptions(
	message: MessageView,
	results: PollResultsView | undefined,
	me: string,
	vote: (message: MessageView, optionIndexes: number[]) => void,
): HTMLElement {
	const options =
		results?.options ??
		((message.content as { options?: string[] }).options ?? []).map((name, index) => ({
			index,
			name,
			votes: 0,
			voters: [] as Array<{ voter: string }>,
		}));
	const mine = options
		.filter((option) => option.voters.some(({ voter }) => voter === me))
		.map(({ index }) => index);
	const canVote = message.direction === 'outbound';
	const rows = options.map((option) => {
		const chosen = mine.includes(option.index);
		const next = chosen
			? mine.filter((index) => index !== option.index)
			: results?.multipleAnswers
				? [...mine, option.index].sort((a, b) => a - b)
				: [option.index];
		const button = el('button', {
			type: 'button',
			className: `secondary vote${chosen ? ' chosen' : ''}`,
			'data-option': String(option.index),
			disabled: !canVote,
			title: chosen ? 'Take back this vote' : 'Vote for this',
			text: `${chosen ? '✓ ' : ''}${option.name}`,
		});
		button.addEventListener('click', () => vote(message, next));
		const voters = option.voters.map(({ voter }) => (voter === me ? 'you' : voter)).join(', ');
		return el('li', { 'data-option': String(option.index) }, [
			button,
			el('span', {
				className: 'votes',
				'data-votes': String(option.votes),
				text: String(option.votes),
			}),
			voters ? el('span', { className: 'voters muted', text: voters }) : null,
		]);
	});
	const hint = results?.multipleAnswers ? 'Choose one or more' : 'Choose one';
	return el('div', { className: 'poll' }, [
		el('div', {
			className: 'muted poll-hint',
			text: `${hint} · ${results?.totalVoters ?? 0} voted`,
		}),
		el('ul', { className: 'options' }, rows),
	]);
}
