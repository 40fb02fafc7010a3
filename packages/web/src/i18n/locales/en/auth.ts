/**
 * Sign-in, registration and soft logout (password, SSO, OIDC through the
 * homeserver's provider), and Settings › Account's link to the provider's
 * account page. SPEC §8's sign-in messages come from the SDK as they are.
 */
export const auth = {
  // Sign-in screen
  sign_in_title: "Sign in",
  sign_in_subtitle: "Welcome back to your conversations.",
  username: "Username",
  username_placeholder: "alice or @alice:example.org",
  password: "Password",
  sign_in: "Sign in",
  or: "or",
  sso_continue: "Continue with single sign-on",
  sso_continue_with: "Continue with {{name}}",
  create_account_link: "Create an account",
  guest_continue: "Continue as guest",
  missing_fields: "Fill in the username and password.",
  // Homeserver picker
  homeserver: "Homeserver",
  homeserver_hint: "A server name (example.org), your user id (@you:example.org) or a URL",
  homeserver_continue: "Continue",
  homeserver_checking: "Checking the homeserver",
  homeserver_change: "Change",
  // OIDC
  oidc_continue: "Continue with {{host}}",
  oidc_create: "Create account",
  oidc_hint: "You sign in on {{host}}, the sign-in service of your homeserver.",
  oidc_unavailable_generic: "Sign-in through the server's provider is not possible: {{message}}",
  // Registration
  register_title: "Create an account",
  register_password_confirm: "Confirm password",
  register_email: "Email (optional)",
  register_email_hint: "Lets you reset your password; some servers require it.",
  register_token_optional: "Registration token (optional)",
  register_submit: "Create account",
  register_running: "Creating your account",
  register_terms: "This homeserver asks you to accept its policies:",
  register_terms_version: "(version {{version}})",
  register_terms_accept: "Accept and continue",
  register_terms_decline: "Decline",
  register_email_title: "Check your mail",
  register_email_sent: "We sent a link to {{email}}. Open it, then come back here.",
  register_email_done: "I followed the link",
  register_email_resend: "Send again",
  register_token_needed: "This homeserver needs a registration token to sign up.",
  register_token: "Registration token",
  register_token_continue: "Continue",
  register_back: "Back to sign in",
  passwords_differ: "The passwords do not match.",
  register_cancelled: "Registration was cancelled.",
  // Soft logout
  soft_logout_title: "You're signed out",
  soft_logout_subtitle: "Sign in again as {{userId}} to pick up where you left off.",
  soft_logout_kept: "Your messages and keys are still stored on this device.",
  soft_logout_continue: "Sign in again with {{host}}",
  soft_logout_sign_in: "Sign in",
  soft_logout_clear: "Sign out and clear data",
  // Settings › Account
  manage_account_heading: "Your account at the sign-in service",
  manage_account_hint: "Your password, email and sessions are managed on {{host}}.",
  manage_account: "Manage account",
  // The loading screen: the session's restore, and the return from a provider (OIDC or SSO)
  starting: "Starting Lattice…",
  finishing_sign_in: "Signing you in…",
  finishing_sign_in_detail: "Finishing the sign-in with your provider. This takes a few seconds.",
};
