import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import type { WorkspaceClient } from '../../src/client';
import { workspaceConnection, type Connection } from '../shared/client';
import { errorJson, toNodeError, type ErrorContext } from '../shared/errors';
import { findOperation } from '../shared/resources';
import { listSearch, properties, resources } from './actions';

export class Multichannel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel',
		name: 'multichannel',
		icon: {
			light: 'file:../../icons/multichannel.svg',
			dark: 'file:../../icons/multichannel.dark.svg',
		},
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Work with the Multichannel messaging service and its AI models',
		defaults: {
			name: 'Multichannel',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'multichannelApi',
				required: true,
			},
		],
		properties,
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const returnData: INodeExecutionData[] = [];
		let connection: Connection<WorkspaceClient> | undefined;

		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			const errorContext: ErrorContext = { itemIndex, keyKind: 'workspace' };
			try {
				const { resource, operation } = findOperation(
					this.getNode(),
					resources,
					this.getNodeParameter('resource', itemIndex) as string,
					this.getNodeParameter('operation', itemIndex) as string,
					itemIndex,
				);
				errorContext.scope = operation.scope;
				errorContext.noun = resource.noun;
				errorContext.fields = operation.fields;

				connection ??= await workspaceConnection(this);
				errorContext.secrets = connection.secrets;

				const result = await operation.execute.call(this, {
					client: connection.client,
					itemIndex,
				});
				returnData.push(
					...this.helpers.constructExecutionMetaData(
						this.helpers.returnJsonArray(result as IDataObject | IDataObject[]),
						{ itemData: { item: itemIndex } },
					),
				);
			} catch (error) {
				const nodeError = toNodeError(this.getNode(), error, errorContext);
				if (this.continueOnFail()) {
					returnData.push({ json: errorJson(nodeError), pairedItem: { item: itemIndex } });
					continue;
				}
				throw nodeError;
			}
		}

		return [returnData];
	}
}
