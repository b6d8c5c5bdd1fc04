import { expect, test } from "@playwright/test";
import { storedSecrets } from "../../src/privacy/stored-secrets.js";

const signedIn = {
  cookies: [
    { name: "members_session", value: "sess_7f2c9a41b0de", domain: "localhost", path: "/" },
    { name: "consent", value: "1", domain: "localhost", path: "/" },
    { name: "theme", value: "dark", domain: "localhost", path: "/" },
    { name: "_sa_key", value: "prj_closed_staging", domain: "localhost", path: "/" },
  ],
  origins: [
    {
      origin: "http://localhost:47415",
      localStorage: [
        {
          name: "auth",
          value: JSON.stringify({
            accessToken: "eyJhbGciOiJIUzI1NiJ9.e30.sig",
            user: { id: 42, role: "admin" },
            scopes: ["read", "write-all-things"],
          }),
        },
        { name: "refresh", value: "rt_55c1e0a9f3" },
        { name: "greeting", value: "hello there, friend" },
      ],
    },
  ],
};

test("a storage state's secrets are its cookie values and the tokens in its local storage, JSON opened; flags, words and the project keys are not", () => {
  expect(storedSecrets(signedIn, new Set(["prj_closed_staging"]))).toEqual([
    "sess_7f2c9a41b0de",
    "eyJhbGciOiJIUzI1NiJ9.e30.sig",
    "write-all-things",
    "rt_55c1e0a9f3",
  ]);
});

test("a storage state with nothing in it, or of another shape, yields no secret", () => {
  expect(storedSecrets({ cookies: [], origins: [] }, new Set())).toEqual([]);
  expect(storedSecrets({ cookies: [{ value: 42 }], origins: [{}] }, new Set())).toEqual([]);
});
