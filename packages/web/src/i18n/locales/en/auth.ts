/** Sign-in (OIDC through the homeserver's provider) and the soft-logout screen's provider path. */
export const auth = {
  oidc_continue: "Continue with {{host}}",
  oidc_create: "Create account",
  oidc_hint: "You sign in on {{host}}, the sign-in service of your homeserver.",
  oidc_unavailable_generic: "Sign-in through the server's provider is not possible: {{message}}",
  or: "or",
  soft_logout_continue: "Sign in again with {{host}}",
};
