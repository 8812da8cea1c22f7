export * from './messages';
export * from './password';
export * from './accounts';
export * from './api';
export * from './service';
export * from './lookup';
export * from './documents';
export * from './pdf';
