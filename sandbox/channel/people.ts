import { randomInt } from 'node:crypto';

import {
	CONTACT_ID_PATTERN,
	HIDDEN_NUMBER_CHAT_ID_PATTERN,
	isGroupChatId,
	numberOfPersonChatId,
	USERNAME_PATTERN,
} from '../../src/client/chat-ids';
import { E164_PATTERN } from '../../src/client/phone-number';
import type { SandboxCore } from '../core';
import { HttpError } from '../errors';
import { chatIdOf } from './chat-ids';
import { presentContact } from '../present';
import { newId, type ContactRecord, type InstanceRecord } from '../store/store';

/**
 * Who a person is, whatever name they are given (the contract, 2026-11-28 "people"): a number, a person's chat
 * id, the `…@lid` chat id of one who hides their number, a contact id or an `@username`. Every name but a number
 * must be a contact of the instance: an unknown one is 404 naming the field, never a guess.
 */

export interface Person {
	/** How messages and events name them in `from`: their number, else (hidden) their contact id. */
	from: string;
	/** How a send names their chat: their number, else their `…@lid` chat id. */
	recipient: string;
	/** Their number, when they show it. */
	phone?: string;
	username?: string;
	contact?: ContactRecord;
}

/** Whether a chat id is that of a person who hides their number. */
export function isHiddenNumberChatId(chatId: string): boolean {
	return HIDDEN_NUMBER_CHAT_ID_PATTERN.test(chatId);
}

/** A person as messages and events name them. */
export function personOf(contact: ContactRecord): Person {
	const username = contact.username === undefined ? {} : { username: contact.username };
	if (contact.phoneNumber !== null) {
		const phone = contact.phoneNumber;
		return { from: phone, recipient: phone, phone, ...username, contact };
	}
	return {
		from: contact.id,
		recipient: contact.hiddenNumberChatId as string,
		...username,
		contact,
	};
}

/** The instance's first contact that `matching` takes. */
function contactWhere(
	core: SandboxCore,
	instance: InstanceRecord,
	matching: (contact: ContactRecord) => boolean,
): ContactRecord | undefined {
	return core.store
		.all('contacts', (contact) => contact.instanceId === instance.id && matching(contact))
		.at(0);
}

/** The person of a number (E.164): their contact's, with its username, or the number alone. */
export function findPersonByNumber(
	core: SandboxCore,
	instance: InstanceRecord,
	number: string,
): Person {
	const contact = contactWhere(core, instance, (candidate) => candidate.phoneNumber === number);
	return contact ? personOf(contact) : { from: number, recipient: number, phone: number };
}

/** A username (`@maria`) matched ignoring case, as the channel does. */
const usernameIs = (username: string) => (contact: ContactRecord) =>
	contact.username?.toLowerCase() === username.slice(1).toLowerCase();

/** The contact a name without a number gives (`ct_…`, `@username`, `…@lid`); null when it is no such name. */
function contactNamed(
	core: SandboxCore,
	instance: InstanceRecord,
	named: string,
): ContactRecord | undefined | null {
	const lowered = named.toLowerCase();
	if (CONTACT_ID_PATTERN.test(named))
		return contactWhere(core, instance, (contact) => contact.id === named);
	if (USERNAME_PATTERN.test(named)) return contactWhere(core, instance, usernameIs(named));
	if (HIDDEN_NUMBER_CHAT_ID_PATTERN.test(lowered))
		return contactWhere(core, instance, (contact) => contact.hiddenNumberChatId === lowered);
	return null;
}

/** The person a value names on an instance; a group id, or anything not a person, is undefined. */
export function findPerson(
	core: SandboxCore,
	instance: InstanceRecord,
	named: string,
): Person | undefined | 'unknown' {
	if (isGroupChatId(named)) return undefined;
	const number = E164_PATTERN.test(named) ? named : numberOfPersonChatId(named);
	if (number !== undefined) return findPersonByNumber(core, instance, number);
	const contact = contactNamed(core, instance, named);
	if (contact === null) return undefined;
	return contact ? personOf(contact) : 'unknown';
}

/**
 * The person a request names in `field`, or 404 `contact_not_found` naming it: a wrong guess would send a message
 * to someone else. A group id, or a value that names no one, is undefined (the schema has refused anything else).
 */
export function requirePerson(
	core: SandboxCore,
	instance: InstanceRecord,
	named: string,
	field: string,
): Person | undefined {
	const person = findPerson(core, instance, named);
	if (person !== 'unknown') return person;
	const problem = `no contact ${named} on instance ${instance.id}: name a contact of the instance (its id, @username or chat id), or a phone number`;
	throw new HttpError(404, 'contact_not_found', `"${field}": ${problem}`, [
		{ field, message: problem },
	]);
}

/** A send's recipient as the channel takes it: a group id, a number, or a hidden number's `…@lid` chat id. */
export function recipientNamed(
	core: SandboxCore,
	instance: InstanceRecord,
	named: string,
	field: string,
): string {
	return requirePerson(core, instance, named, field)?.recipient ?? named;
}

/**
 * How a sent message names its recipient in `to`, as a received one names its sender in `from`: a person who hides
 * their number by their contact id (their `…@lid` is the message's `chatId`), so a reply matches what was sent.
 */
export function sentTo(core: SandboxCore, instance: InstanceRecord, recipient: string): string {
	if (!isHiddenNumberChatId(recipient)) return recipient;
	return (
		contactWhere(core, instance, (contact) => contact.hiddenNumberChatId === recipient)?.id ??
		recipient
	);
}

/**
 * The chat a request names in `field`: its chat id, or a person by any name (a number names that person's chat
 * wherever a chat is taken, the contract's 2026-11-25 "Numbers"); an unknown contact is 404 (`requirePerson`).
 */
export function chatIdNamed(
	core: SandboxCore,
	instance: InstanceRecord,
	chat: string,
	field: string,
): string {
	const person = requirePerson(core, instance, chat, field);
	return person ? chatIdOf(person.recipient) : chat;
}

/**
 * The sandbox's stand-in for a person who hides their number writing for the first time: the contact of that
 * username, made (with a linked id of its own, `…@lid`; `contact.created`) when the instance does not know it yet.
 */
export function contactOfUsername(
	core: SandboxCore,
	instance: InstanceRecord,
	username: string,
): ContactRecord {
	const known = contactWhere(core, instance, usernameIs(username));
	if (known) return known;
	const now = core.now().toISOString();
	const contact = core.store.insert('contacts', {
		id: newId('ct'),
		workspaceId: instance.workspaceId,
		instanceId: instance.id,
		phoneNumber: null,
		username: username.slice(1),
		hiddenNumberChatId: `${randomInt(1, 10)}${String(randomInt(0, 1e14)).padStart(14, '0')}@lid`,
		name: null,
		email: null,
		tags: [],
		blocked: false,
		createdAt: now,
		updatedAt: now,
	});
	core.emit(instance.workspaceId, 'contact.created', presentContact(contact), {
		instanceId: instance.id,
	});
	return contact;
}
