/** Examples of the second-factor routes' requests and answers, for the OpenAPI document. */

export const TOTP_SETUP_EXAMPLE = {
  otpauth_uri:
    'otpauth://totp/Touchtrail:maria%40shop.example.com?issuer=Touchtrail&secret=ZYDGJRSPCWK76RDQYH7JQA44DDOOVNSS&algorithm=SHA1&digits=6&period=30',
  secret: 'ZYDGJRSPCWK76RDQYH7JQA44DDOOVNSS',
};

export const TOTP_CODE_EXAMPLE = { code: '492039' };

export const RECOVERY_CODES_EXAMPLE = {
  recovery_codes: [
    'f5vr-w7fc-md9e',
    'bmca-yeuy-vwmq',
    'v4qu-ef3m-29x6',
    'naqh-6993-qhb3',
    'cwg5-yd3p-gf3e',
    'd7vr-8mut-2cv6',
    'p992-6hbk-ej5e',
    'vqw8-ndgm-e4gf',
    'vqd7-2fnx-pz5b',
    '9ubs-yemf-hbk9',
  ],
};
