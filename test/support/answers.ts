/** The service's reply to an answer registration (POST /instances/inst_1/answers), as the node tests mock it. */
export const pendingAnswer = (expiresAt: unknown) => ({
	id: 'ans_1',
	instanceId: 'inst_1',
	messageId: null,
	chatId: '14155550190@s.whatsapp.net',
	accepts: ['reply'],
	status: 'pending',
	expiresAt,
	createdAt: new Date().toISOString(),
});
