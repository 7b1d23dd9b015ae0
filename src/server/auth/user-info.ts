/** The authenticated identity of a request (apiserver `user.Info`) and the well-known names. */

export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const ANONYMOUS_USER = "system:anonymous";
export const ALL_UNAUTHENTICATED = "system:unauthenticated";
export const ALL_AUTHENTICATED = "system:authenticated";
/** `user.SystemPrivilegedGroup`: allowed everything before any authorizer is asked. */
export const SYSTEM_MASTERS = "system:masters";

/** The identity of a request without credentials (`anonymous.NewAuthenticator`). */
export function anonymousUser(): UserInfo {
  return { name: ANONYMOUS_USER, uid: "", groups: [ALL_UNAUTHENTICATED] };
}

/**
 * `AuthenticatedGroupAdder`: every authenticated user is in `system:authenticated`, unless it already is or
 * is anonymous (`system:unauthenticated`).
 */
export function withAuthenticatedGroup(u: UserInfo): UserInfo {
  if (u.name === ANONYMOUS_USER) return u;
  if (u.groups.includes(ALL_AUTHENTICATED) || u.groups.includes(ALL_UNAUTHENTICATED)) return u;
  return { ...u, groups: [...u.groups, ALL_AUTHENTICATED] };
}
