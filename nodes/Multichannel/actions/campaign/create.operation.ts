import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { api, ApiError, type WorkspaceClient } from '../../../../src/client';
import { Campaign } from '../../../../src/client/resources/campaigns';
import { workflowReference } from '../../../shared/idempotency';
import { noted } from '../../../shared/what-went';
import { invalidValue } from '../../../shared/input-errors';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { inToolMode } from '../../../shared/tool-mode';
import { fromField } from '../message/send';
import {
	inCalls,
	readRecipients,
	RecipientResults,
	recipientFieldNames,
	recipientFields,
	RecipientSummary,
} from './recipients';
import { readSettings, settingsFieldNames, settingsFields } from './settings';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a campaign',
	description:
		'Send one message to every input item, paced by the service: all items become the recipients of one campaign, each sent once',
};

export const description: INodeProperties[] = [
	fromField,
	...settingsFields.slice(0, 1),
	...recipientFields,
	...settingsFields.slice(1),
];

export const scope = api.workspace.campaigns.create.scope;
export const readsNumbers = true;
/** Every input item is a recipient: one run for all of them, not one request per item. */
export const wholeInput = true;
export const output = Campaign.extend(RecipientSummary);

export const fields = { instanceId: 'Instance', ...settingsFieldNames, ...recipientFieldNames };

/**
 * One campaign for all input items: created with the first 1,000 recipients, the rest added 1,000 a call, then
 * started. The reference (derived from the workflow, the node and the Campaign Name) makes a re-run find the
 * campaign it made: then every recipient goes through an add, and those already in it come back `duplicate`.
 */
export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { client, itemIndex, options } = item;
	if (inToolMode(this)) {
		// An agent's call is one item: a campaign of one person is a plain send, and a whole list is not its to make.
		throw new NodeOperationError(this.getNode(), 'Campaign → Create cannot be used as a tool', {
			itemIndex,
			description:
				'Create campaigns in a workflow from a list of input items. As a tool, the Multichannel node can get a campaign, its recipients, and check a number for an opt-out.',
		});
	}
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const { settings, startAt } = readSettings(this, options);
	const { recipients, unreadable } = readRecipients(this, item);
	if (recipients.length === 0) {
		const first = unreadable[0];
		throw invalidValue(
			this.getNode(),
			'To',
			first?.itemIndex ?? itemIndex,
			`no input item has a phone number the campaign can use${first ? `: ${first.reason}` : ''}`,
		);
	}
	const reference = String(options.reference ?? '').trim() || derivedReference(this, settings.name);

	const results = new RecipientResults(unreadable);
	const [firstCall, ...laterCalls] = inCalls(recipients);
	const made = await client.campaigns
		.create({
			instanceId,
			body: { ...settings, reference, recipients: firstCall.map(({ recipient }) => recipient) },
		})
		.catch((error: unknown) => {
			if (!(error instanceof ApiError && error.code === 'reference_in_use')) throw error;
			throw noted(
				error,
				`This node already made a campaign under Campaign Name "${settings.name}", with another message or instance: running it again adds recipients to that campaign, and they would get its message. To send this message, give the campaign a new Campaign Name (or Options → Reference).`,
			);
		});
	const created = made.created !== false;
	const campaignId = made.campaign.id;
	try {
		// A campaign found by its reference took none of this call's recipients: they go through an add too.
		if (created) results.add(firstCall, made.recipients);
		for (const call of created ? laterCalls : [firstCall, ...laterCalls]) {
			const answer = await client.campaigns.addRecipients({
				campaignId,
				body: { recipients: call.map(({ recipient }) => recipient) },
			});
			results.add(call, answer.recipients);
		}
		const campaign = await client.campaigns.start({
			campaignId,
			body: startAt ? { startAt } : {},
		});
		const summary = results.summary();
		if (summary.notAdded.length > 0) {
			// The run succeeds for the others: without a hint, a green run hides the items left out.
			this.addExecutionHints({
				message: `${summary.notAdded.length} of ${this.getInputData().length} input items were not added to the campaign: see notAdded in the output (each one's item index, number and why)`,
				location: 'outputPane',
				type: 'warning',
			});
		}
		return { ...campaign, created, ...summary };
	} catch (error) {
		throw noted(error, halfWayNote(campaignId, made.campaign.status));
	}
}

/** What a run that failed after making (or finding) the campaign leaves, and how to finish. */
function halfWayNote(campaignId: string, status: string): string {
	const rerun = 'Run the workflow again: it finds this campaign, adds the recipients it lacks';
	if (status === 'scheduled') {
		return `The campaign ${campaignId} is made and holds the recipients added so far; it was not started by this run. ${rerun} and starts it (those already in it are not sent twice).`;
	}
	// Found already started by an earlier run: it goes on as it was, for those already in it.
	return `The campaign ${campaignId} was already ${status} before this run, and holds the recipients added so far; this run did not add all of its items. ${rerun} (those already in it are not sent twice).`;
}

/**
 * The campaign's reference from the workflow, this node and the Campaign Name. A workflow without an ID (one run
 * from another's JSON, by Execute Workflow's "Define Below") would share it with every other such workflow.
 */
function derivedReference(context: IExecuteFunctions, name: string): string {
	if (!context.getWorkflow().id) {
		throw invalidValue(
			context.getNode(),
			'Reference',
			0,
			'this workflow has no ID to tell its campaign from others',
			'Save the workflow first, or set Options → Reference to a name of your own for this campaign: running again with the same reference finds the campaign instead of creating another.',
		);
	}
	return workflowReference(context, ['campaign', name]);
}
