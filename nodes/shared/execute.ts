import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Connection } from './client';
import { errorJson, toNodeError, type ErrorContext } from './errors';
import { findOperation, type ResourceModule } from './resources';

export interface ActionNodeConfig<C> {
	resources: Array<ResourceModule<C>>;
	/** The credential's key kind, named in error messages. */
	keyKind: string;
	/** Opens the client once per run, on the first item that needs it. */
	connect(context: IExecuteFunctions): Promise<Connection<C>>;
}

/**
 * The `execute` of every action node: each input item runs its resource's operation, every output carries
 * `pairedItem`, and a failure either stops the run or, with "continue on fail", becomes that item's error
 * output, mapped in one place (`toNodeError`).
 */
export async function executeActions<C>(
	context: IExecuteFunctions,
	config: ActionNodeConfig<C>,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const returnData: INodeExecutionData[] = [];
	let connection: Connection<C> | undefined;

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const errorContext: ErrorContext = { itemIndex, keyKind: config.keyKind };
		try {
			const { resource, operation } = findOperation(
				context.getNode(),
				config.resources,
				context.getNodeParameter('resource', itemIndex) as string,
				context.getNodeParameter('operation', itemIndex) as string,
				itemIndex,
			);
			errorContext.scope = operation.scope;
			errorContext.noun = resource.noun;
			errorContext.fields = operation.fields;

			connection ??= await config.connect(context);
			errorContext.secrets = connection.secrets;

			const result = await operation.execute.call(context, {
				client: connection.client,
				itemIndex,
			});
			returnData.push(
				...context.helpers.constructExecutionMetaData(
					context.helpers.returnJsonArray(result as IDataObject | IDataObject[]),
					{ itemData: { item: itemIndex } },
				),
			);
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error, errorContext);
			if (context.continueOnFail()) {
				returnData.push({ json: errorJson(nodeError), pairedItem: { item: itemIndex } });
				continue;
			}
			throw nodeError;
		}
	}

	return [returnData];
}
