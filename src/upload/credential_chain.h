// SPDX-License-Identifier: Apache-2.0
// The standard AWS credential chain, in the SDKs' order: environment variables, the shared
// credentials/config files (AWS_PROFILE), the container credentials endpoint (ECS, EKS Pod
// Identity), EC2 instance metadata (IMDSv2). The first source that is configured wins; a
// configured source that fails is an error (no silent fall-through to another identity).
#pragma once

#include <optional>
#include <string>

#include "common/status.h"
#include "upload/credentials.h"
#include "upload/environment.h"
#include "upload/http_client.h"

namespace gsys::upload {

// Each source: nullopt when it is not configured (or, for instance metadata, not reachable).
std::optional<AwsCredentials> CredentialsFromEnvironment(const Environment& env);
Result<std::optional<AwsCredentials>> CredentialsFromSharedFiles(const Environment& env);
// AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (on http://169.254.170.2, or the test-only
// GSYS_UPLOAD_CONTAINER_CREDENTIALS_HOST) or _FULL_URI, with AWS_CONTAINER_AUTHORIZATION_TOKEN
// or _TOKEN_FILE as the Authorization header.
Result<std::optional<AwsCredentials>> CredentialsFromContainer(const Environment& env,
                                                               HttpClient* http);
// IMDSv2: PUT /latest/api/token, then GET .../iam/security-credentials/ and the role's
// document, each with a 1 s connect and 3 s total timeout. AWS_EC2_METADATA_DISABLED=true
// skips it; AWS_EC2_METADATA_SERVICE_ENDPOINT replaces http://169.254.169.254.
Result<std::optional<AwsCredentials>> CredentialsFromInstanceMetadata(const Environment& env,
                                                                      HttpClient* http);

// The whole chain. Without any source: kIoError listing what was tried.
Result<AwsCredentials> ResolveCredentials(const Environment& env, HttpClient* http);

// The region: AWS_REGION, AWS_DEFAULT_REGION, the profile's `region`, else "us-east-1".
std::string ResolveRegion(const Environment& env);

}  // namespace gsys::upload
