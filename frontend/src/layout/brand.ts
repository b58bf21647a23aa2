/** The product's name and public contact address, as shown to people. */
export const PRODUCT_NAME = 'Botsmith';
export const SUPPORT_EMAIL = 'support@botsmith.dev';
