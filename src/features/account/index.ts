/** The account screens (SPEC 2.5), one route component each. */
export { SignupCard } from './SignupCard';
export { ConfirmCard } from './ConfirmCard';
export { LoginCard } from './LoginCard';
export { ForgotCard } from './ForgotCard';
export { ResetCard } from './ResetCard';
export { CARD_NAMES, cardErrorTitle, RESEND_ERROR_TITLE } from './accountText';
