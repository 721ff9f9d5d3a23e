/** Sent as the user agent and shown by `touchtrail --version`. */
export const CLI_VERSION = '0.1.0';
