/**
 * The n8n harness: real n8n workflows run in-process through n8n-core, for the node tests and the bench. One job a
 * file: package.ts (loading the package), node-types.ts (its node types and the stand-ins), credentials.ts (the
 * credentials helper), execution.ts (n8n's "additional data"), workflow.ts (running a workflow, or one node after
 * Manual Trigger → Items), credential-test.ts ("Save" in the credential dialog), list-search.ts ("From list").
 * Triggers are imported from triggers.ts (a trigger's webhook lifecycle as n8n runs it) and webhook-endpoint.ts
 * (the stand-in for n8n's webhook endpoint).
 */
export { testCredential, type CredentialTestResult } from './credential-test';
export { HarnessCredentialsHelper, type CredentialValues } from './credentials';
export { runListSearch } from './list-search';
export { connectionDefaults, ITEMS_TYPE, MANUAL_TRIGGER_TYPE } from './node-types';
export { loadPackage, PACKAGE_DIR, type LoadedPackage, type PackageSource } from './package';
export {
	ITEMS_NAME,
	itemsIntoNode,
	runNode,
	runWorkflow,
	TRIGGER_NAME,
	type NodeUnderTest,
	type RunNodeOptions,
	type RunOptions,
	type WorkflowDefinition,
	type WorkflowResult,
} from './workflow';
